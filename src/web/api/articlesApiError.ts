// The articles client's error became the one `/api` caller's ApiError (src/web/api/): these names
// stay so code written against them keeps working; new code imports from './apiError.ts'.
export { ApiError as ArticlesApiError, errorFromResponse } from './apiError.ts';
