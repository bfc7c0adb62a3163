import { create } from 'zustand';
import type { Poi } from '../api/leaks.ts';

interface LeakState {
  /** The POIs the leak screen shows (console-spec: leak list). */
  list: Poi[];
  /** The POI picked on the list or the map (console-spec: currentLeak). */
  currentLeak: Poi | null;
  setList(list: Poi[]): void;
  setCurrentLeak(poi: Poi | null): void;
}

export const useLeaks = create<LeakState>((set) => ({
  list: [],
  currentLeak: null,
  setList: (list) => set({ list }),
  setCurrentLeak: (currentLeak) => set({ currentLeak }),
}));
