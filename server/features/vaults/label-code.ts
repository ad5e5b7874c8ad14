import crypto from 'node:crypto';

/** A vault's label code: 96 random bits as base64url (16 characters), unguessable and meaningless to outsiders. */
export function newLabelCode(): string {
  return crypto.randomBytes(12).toString('base64url');
}

export const LABEL_CODE = /^[A-Za-z0-9_-]{16}$/;
