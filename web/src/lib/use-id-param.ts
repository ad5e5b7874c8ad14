import { useParams } from 'react-router';

/** The route's `:id` as a number, or null when it is not a positive whole number (no such record can exist). */
export function useIdParam(): number | null {
  const id = Number(useParams().id);
  return Number.isInteger(id) && id > 0 ? id : null;
}
