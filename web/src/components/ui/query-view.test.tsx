import type { UseQueryResult } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { QueryView } from './query-view';

/** The parts of a query's state QueryView reads, as TanStack Query reports them. */
function queryIn(state: { isPending?: boolean; error?: unknown; data?: string[] }) {
  return {
    isPending: state.isPending ?? false,
    isError: state.error !== undefined,
    error: state.error ?? null,
    data: state.data,
    refetch: () => Promise.resolve(),
  } as unknown as UseQueryResult<string[]>;
}

function view(query: UseQueryResult<string[]>, failed?: string) {
  return renderToStaticMarkup(
    <QueryView query={query} loading="Loading rooms..." failed={failed} empty={<p>No rooms yet</p>}>
      {(rooms) => (
        <ul>
          {rooms.map((room) => (
            <li key={room}>{room}</li>
          ))}
        </ul>
      )}
    </QueryView>,
  );
}

describe('QueryView', () => {
  it('says what it loads while the query is pending', () => {
    const markup = view(queryIn({ isPending: true }));
    expect(markup).toContain('role="status"');
    expect(markup).toContain('Loading rooms...');
    expect(markup).not.toContain('No rooms yet');
  });

  it('names what could not be loaded before the reasons, and offers to try again', () => {
    const markup = view(
      queryIn({ error: new ApiError(503, ['The database is busy.']) }),
      'Rooms could not be loaded.',
    );
    expect(markup).toContain('role="alert"');
    expect(markup.indexOf('Rooms could not be loaded.')).toBeLessThan(
      markup.indexOf('The database is busy.'),
    );
    expect(markup).toContain('Try again');
  });

  it('shows the empty state for an empty list, and the list otherwise', () => {
    expect(view(queryIn({ data: [] }))).toBe('<p>No rooms yet</p>');
    expect(view(queryIn({ data: ['Kitchen', 'Attic'] }))).toBe('<ul><li>Kitchen</li><li>Attic</li></ul>');
  });
});
