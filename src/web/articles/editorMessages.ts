import { charactersLeft } from '../components/charactersLeft.ts';

/**
 * Texts of the writing tools the original product did not have (toolbar, preview, uploads, counters).
 * Not fixed wording; the product's fixed labels and messages stay in src/shared/messages.ts.
 */
export const editorMessages = {
  toolbarLabel: 'Formatting',
  bold: 'Bold',
  italic: 'Italic',
  heading: 'Heading',
  link: 'Link',
  list: 'Bulleted list',
  quote: 'Quote',
  code: 'Code',
  image: 'Insert an image',
  write: 'Write',
  preview: 'Preview',
  previewEmpty: 'Nothing to preview yet.',
  previewLoading: 'Loading the preview…',
  previewFailed: 'The preview could not be loaded. Your text is safe; saving still works.',
  upload: 'Upload',
  altTextLabel: 'Describe this image for people who cannot see it (alt text)',
  altTextSave: 'Add description',
  captionLabel: 'Caption (optional: shown under the image)',
  altTextSkip: 'Leave it without',
  uploading: 'Uploading…',
  uploadingImage: 'Uploading the image…',
  coverPreview: 'Cover preview',
  coverDidNotLoad: 'The image at this address could not be loaded. Check the address, or upload the image.',
  markdownHint:
    'Markdown works here: **bold**, _italic_, ## headings, - lists, > quotes, [links](https://…). Paste or drop an image to upload it.',
  uploadTooLarge: 'This image is too large.',
  uploadWrongType: 'This file is not an image this site can read. Use JPEG, PNG, WebP, AVIF or GIF.',
  uploadRateLimited: 'You have uploaded many images just now. Please wait a moment and try again.',
  uploadFailed: 'The image could not be uploaded. Please try again.',
  leaveTitle: 'Leave without saving?',
  leaveBody: 'Your changes are not saved. Leave now and they wait as a draft in this tab, or discard them.',
  keepEditing: 'Keep editing',
  leaveKeepDraft: 'Leave, keep draft',
  discardChanges: 'Discard changes',
  draftRestored: 'Your unsaved changes from earlier in this tab are back. Carry on, or discard them.',
  discardDraft: 'Discard draft',
  charactersLeft,
} as const;
