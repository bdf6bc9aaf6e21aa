/** One invalid field of a request body, as shown next to that field in a form. */
export interface FieldError {
  field: string;
  message: string;
}
