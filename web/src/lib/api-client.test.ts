import { describe, expect, it } from 'vitest';
import { forPeople, inputErrors, refusalOf } from './api-client';

describe('a server message for people', () => {
  it("drops the input's name the server puts first", () => {
    expect(forPeople('sit_authorization: A SIT account needs its authorization number.')).toBe(
      'A SIT account needs its authorization number.',
    );
    expect(forPeople('items.0.name: Name is required.')).toBe('Name is required.');
    expect(forPeople('q: Too long.')).toBe('Too long.');
  });

  it('keeps a message that does not start with an input name', () => {
    expect(forPeople('Only a Manager can do this.')).toBe('Only a Manager can do this.');
    expect(forPeople('Field A1 is full: 3 of 3 slots.')).toBe('Field A1 is full: 3 of 3 slots.');
    expect(forPeople('e.g. B4')).toBe('e.g. B4');
  });
});

describe("a refused request's answer", () => {
  it('keeps the first message about each input the server named, for the form to show under it', () => {
    const refusal = refusalOf(
      {
        errors: [
          'sit_start: SIT cannot start before the units moved in on Mar 5, 2026.',
          'sit_start: A second word about it.',
          'items.0.name: Name is required.',
          'The orders belong to different customers.',
        ],
      },
      400,
    );
    expect(refusal.messages).toEqual([
      'SIT cannot start before the units moved in on Mar 5, 2026.',
      'A second word about it.',
      'Name is required.',
      'The orders belong to different customers.',
    ]);
    expect(refusal.byInput).toEqual({
      sit_start: 'SIT cannot start before the units moved in on Mar 5, 2026.',
      items: 'Name is required.',
    });
    expect(inputErrors(refusal)).toBe(refusal.byInput);
  });

  it('says the request failed when the answer names no message', () => {
    expect(refusalOf(null, 502).messages).toEqual(['An error occurred. Please try again.']);
    expect(refusalOf({ errors: [] }, 404).messages).toEqual(['Request failed (404).']);
    expect(refusalOf({ errors: 'Not found' }, 404)).toMatchObject({ messages: ['Not found'], byInput: {} });
    expect(inputErrors(new Error('boom'))).toEqual({});
  });
});
