import type { ComponentType } from 'react';

/** The spec's chunk load timeout: a route chunk not loaded after 120 s fails (with a retry screen). */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadTimeout extends Error {
  constructor() {
    super('chunk load timed out');
    this.name = 'ChunkLoadError';
  }
}

/** A react-router `lazy` for a page module whose default export is the page. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>, timeoutMs = CHUNK_TIMEOUT_MS) {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChunkLoadTimeout()), timeoutMs);
    });
    try {
      const module = await Promise.race([load(), timeout]);
      return { Component: module.default };
    } finally {
      clearTimeout(timer);
    }
  };
}
