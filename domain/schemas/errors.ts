/** Every refusal of the API has this body. */
export interface ApiErrorBody {
  errors: string[];
}
