import { create } from 'zustand';
import { DEFAULT_SETTLEMENT_BANDS, type SettlementBands } from '@console/contract';
import { settlementApi } from '../api/settlement.ts';

interface SettlementBandState {
  /** console-spec "settlement band state": loading, data. */
  loading: boolean;
  /** The enterprise's velocity bands; the defaults until its own are loaded. */
  data: SettlementBands;
  load(): Promise<void>;
}

export const useSettlementBands = create<SettlementBandState>((set) => ({
  loading: false,
  data: DEFAULT_SETTLEMENT_BANDS,
  async load() {
    set({ loading: true });
    try {
      set({ data: (await settlementApi.bands()).result });
    } finally {
      set({ loading: false });
    }
  },
}));
