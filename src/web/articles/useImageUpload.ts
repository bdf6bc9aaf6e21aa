import { useCallback, useState } from 'react';
import { editorTexts } from '../../shared/editorTexts.ts';
import { useAuth } from '../auth/useAuth.ts';
import { ArticlesApiError } from '../api/articlesApiError.ts';
import { editorMessages } from './editorMessages.ts';
import { uploadImage, type UploadedImage } from '../api/imagesApi.ts';

/** What a person reads when an upload fails. */
function uploadProblem(error: unknown): string {
  if (!(error instanceof ArticlesApiError)) return editorMessages.uploadFailed;
  switch (error.status) {
    case 401:
      return editorTexts.mustBeLoggedIn;
    case 413:
      // The server's sentence names the limit that was hit (bytes or megapixels).
      return `${editorMessages.uploadTooLarge} ${error.message}`;
    case 415:
      return editorMessages.uploadWrongType;
    case 429:
      return editorMessages.uploadRateLimited;
    default:
      return editorMessages.uploadFailed;
  }
}

/** Uploads images for the signed-in person; tracks uploads in progress and the last failure. */
export function useImageUpload() {
  const { getIdToken } = useAuth();
  const [inProgress, setInProgress] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  const upload = useCallback(
    async (file: File): Promise<UploadedImage | null> => {
      setProblem(null);
      setInProgress((count) => count + 1);
      try {
        return await uploadImage(file, getIdToken);
      } catch (error) {
        setProblem(uploadProblem(error));
        return null;
      } finally {
        setInProgress((count) => count - 1);
      }
    },
    [getIdToken],
  );

  return { upload, busy: inProgress > 0, problem, clearProblem: useCallback(() => setProblem(null), []) };
}
