import { describe, expect, it } from 'vitest';
import { rowsInView } from '../../src/lib/domain/signals/table';

// The rows a new screen writes before its frame: exactly those the view shows, none to spare.
describe('rowsInView', () => {
  it('gives the rows that overlap the view, no more', () => {
    // Aligned: 440 px of 44 px rows is 10 rows.
    expect(rowsInView(0, 440, 44, 6000)).toEqual({ first: 0, last: 10 });
    expect(rowsInView(44 * 100, 440, 44, 6000)).toEqual({ first: 100, last: 110 });
    // Scrolled part of a row: that row and one more, partly shown at the bottom.
    expect(rowsInView(44 * 100 + 30, 440, 44, 6000)).toEqual({ first: 100, last: 111 });
  });

  it('starts at the first row when the table starts below the top of the view, and is empty below the view', () => {
    expect(rowsInView(-200, 440, 44, 6000)).toEqual({ first: 0, last: 6 });
    expect(rowsInView(-440, 440, 44, 6000)).toEqual({ first: 0, last: 0 });
  });

  it('stops at the last row, and gives the last rows when scrolled past a list that just got shorter', () => {
    expect(rowsInView(0, 440, 44, 3)).toEqual({ first: 0, last: 3 });
    expect(rowsInView(44 * 100, 440, 44, 5)).toEqual({ first: 0, last: 5 });
  });

  it('is empty without rows or a row height', () => {
    expect(rowsInView(0, 440, 44, 0)).toEqual({ first: 0, last: 0 });
    expect(rowsInView(0, 440, 0, 10)).toEqual({ first: 0, last: 0 });
  });
});
