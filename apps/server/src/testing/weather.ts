import type { RiskLevel } from '@console/contract';
import type { Db } from '../db/client.ts';
import { weatherWarnings } from '../db/schema.ts';

/**
 * A rainstorm in force for the next hours over a waterlogging point whose trigger it met (as the
 * weather module keeps it): what the weather rule of the alert loop raises an alert for.
 */
export async function rainstormInForce(db: Db, enterpriseId: number, level: RiskLevel, rainMm: number) {
  const now = Date.now();
  const [warning] = await db
    .insert(weatherWarnings)
    .values({
      enterpriseId,
      source: 'derived',
      basis: 'forecast',
      type: 'rainstorm',
      level,
      start: new Date(now - 3_600_000),
      end: new Date(now + 6 * 3_600_000),
      value: rainMm,
      levels: [],
      area: { type: 'Polygon', coordinates: [[[120.1, 30.1], [120.3, 30.1], [120.3, 30.3], [120.1, 30.3], [120.1, 30.1]]] },
      touches: { pipes: [{ networkType: 'drainage', count: 12, lengthM: 900, why: 'drainageUnderRain' }], riskAreas: [{ id: 1, name: '江南大道下穿', kind: 'waterlogging', why: 'triggerMet', rainMm, hours: 3, triggerMm: 50 }], sites: [] },
    })
    .returning({ id: weatherWarnings.id });
  return warning;
}
