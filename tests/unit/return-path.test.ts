import { describe, expect, it } from 'vitest';
import { isSafeReturnPath, loginReturnPath, logoutReturnPath } from '../../src/lib/domain/accounts/return-path';

describe('isSafeReturnPath (DESIGN.md "Security rules": returnTo)', () => {
  it.each([
    ['/', true],
    ['/signal/AAPL?tab=news#top', true],
    ['//evil.example', false],
    ['/\\evil.example', false],
    ['/\t/evil.example', false],
    ['/a\\b', false],
    ['https://evil.example', false],
    ['javascript:alert(1)', false],
    ['signal/AAPL', false],
    ['', false],
  ])('%j -> %s', (path, safe) => {
    expect(isSafeReturnPath(path)).toBe(safe);
  });
});

describe('loginReturnPath and logoutReturnPath', () => {
  const origins = ['https://signals.example', 'http://localhost:4321'];
  it.each([
    [undefined, '/'],
    ['/archives', '/archives'],
    ['//evil.example', '/'],
  ])('login %j -> %j', (returnTo, expected) => {
    expect(loginReturnPath(returnTo)).toBe(expected);
  });

  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/watchlist', '/watchlist'],
    ['https://signals.example', '/'],
    ['https://signals.example/learn?x=1', '/learn?x=1'],
    ['http://localhost:4321', '/'],
    ['https://signals.example.evil.example/', '/'],
    ['https://evil.example/signals.example', '/'],
    ['http://signals.example', '/'],
    ['javascript:alert(1)', '/'],
    ['not a url', '/'],
  ])('logout %j -> %j', (returnTo, expected) => {
    expect(logoutReturnPath(returnTo, origins)).toBe(expected);
  });
});
