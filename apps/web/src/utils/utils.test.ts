import { describe, expect, it, vi } from 'vitest';
import { greetingPeriod } from './greeting.ts';
import { passwordStrength, scorePassword } from './passwordStrength.ts';
import { ChunkLoadTimeout, CHUNK_TIMEOUT_MS, lazyPage } from '../app/lazyPage.ts';

describe('greetingPeriod', () => {
  it('chooses by hour: before 9, up to 11, up to 13, before 20, otherwise', () => {
    const at = (hour: number) => greetingPeriod(new Date(2026, 0, 1, hour, 30));
    expect([0, 8].map(at)).toEqual(['morning', 'morning']);
    expect([9, 11].map(at)).toEqual(['forenoon', 'forenoon']);
    expect([12, 13].map(at)).toEqual(['noon', 'noon']);
    expect([14, 19].map(at)).toEqual(['afternoon', 'afternoon']);
    expect([20, 23].map(at)).toEqual(['evening', 'evening']);
  });
});

describe('scorePassword', () => {
  it('adds 5 divided by the occurrences so far, and 10 per extra character class', () => {
    expect(scorePassword('')).toBe(0);
    // a: 5, a: 2.5, a: 1.67 -> 9.17, one class -> +0
    expect(scorePassword('aaa')).toBe(9);
    // 6 distinct lower + digit: 35 + 10
    expect(scorePassword('abcdef1')).toBe(45);
    // 13 distinct, three classes: 65 + 20
    expect(scorePassword('Abcdefgh12345')).toBe(85);
    // four classes
    expect(scorePassword('aB1!')).toBe(50);
  });

  it('grades allowed passwords of 6 or more: >= 80 strong, >= 60 medium, else low; shorter is too short, refused ones not allowed', () => {
    expect(passwordStrength('aB1x')).toBe('tooShort');
    // Long enough is never "too short", however plain.
    expect(passwordStrength('aaaaaa')).toBe('low');
    expect(passwordStrength('aaaabbbbcccc')).toBe('low');
    // What the form refuses is never rated: other characters, or more than 32.
    expect(passwordStrength('Abc!@#$%^&*1XyZ')).toBe('notAllowed');
    expect(passwordStrength('aB1!x')).toBe('notAllowed');
    expect(passwordStrength('Ab1'.repeat(11))).toBe('notAllowed');
    expect(passwordStrength('abcdef1')).toBe('low');
    expect(passwordStrength('Abcdefgh123')).toBe('medium');
    expect(passwordStrength('Abcdefgh12345')).toBe('strong');
  });
});

describe('lazyPage', () => {
  it('fails a chunk that has not loaded after 120 s', async () => {
    vi.useFakeTimers();
    const never = lazyPage(() => new Promise(() => {}));
    const result = never();
    const assertion = expect(result).rejects.toBeInstanceOf(ChunkLoadTimeout);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS);
    await assertion;
    vi.useRealTimers();
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
  });

  it('gives the module default export as the route component', async () => {
    const Page = () => null;
    expect(await lazyPage(async () => ({ default: Page }))()).toEqual({ Component: Page });
  });
});
