import { describe, expect, it } from 'vitest';
import { forPeople } from './api-client';

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
