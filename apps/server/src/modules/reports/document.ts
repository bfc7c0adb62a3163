import { REPORT_WORDS, fillWords, incidentTitle, messageTime, type Language, type ReportBlock as Block, type ReportColumn as Column, type ReportIncidentRow, type ReportTrigger, type ReportWords, type RiskReportFigures } from '@console/contract';
import { bowlsMap, incidentsChart, networkChart } from './drawings.ts';

export interface ReportMeta {
  trigger: ReportTrigger;
  createdAt: Date;
}

export function reportBlocks(figures: RiskReportFigures, meta: ReportMeta, language: Language): Block[] {
  const words: ReportWords = REPORT_WORDS[language];
  // Times in tables without their zone: the title says the zone once.
  const time = (at: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: figures.timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(new Date(at));
  const day = (at: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: figures.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
  const number = (n: number | null) => (n === null ? '—' : n.toLocaleString(language));
  const more = (shown: number, total: number) => (total > shown ? fillWords(words.more, { n: total - shown }) : null);
  const { incidents, network, settlement, works, leaks, weather } = figures;
  const incidentRows = (rows: ReportIncidentRow[]) =>
    rows.map((r) => [r.code, words.levelName[r.level], incidentTitle(r, language), words.state[r.state as keyof typeof words.state] ?? r.state, day(r.raisedAt), number(r.handledHours)]);
  const incidentColumns: Column[] = [
    { title: words.col.code, weight: 1.3 },
    { title: words.col.level, weight: 0.7 },
    { title: words.col.title, weight: 5 },
    { title: words.col.state, weight: 1.1 },
    { title: words.col.raised, weight: 1.3 },
    { title: `${words.col.handled} ${words.hours}`, weight: 1, align: 'right' },
  ];
  const blocks: Block[] = [
    {
      kind: 'title',
      text: `${words.title} · ${figures.month}`,
      lines: [figures.enterprise, `${words.period}: ${day(figures.from)} – ${day(new Date(new Date(figures.to).getTime() - 1).toISOString())} (${figures.timeZone})`, `${words.madeAt}: ${messageTime(meta.createdAt, figures.timeZone)} · ${words[meta.trigger]}`],
    },
    { kind: 'heading', text: words.summary },
    {
      kind: 'paragraph',
      text: fillWords(words.summaryLine, { raised: incidents.raised, handled: incidents.handled, median: number(incidents.medianHandledHours), closed: incidents.closed, falseAlarms: incidents.falseAlarms, open: incidents.openAtEnd }),
    },
    { kind: 'heading', text: words.incidents },
  ];
  const chart = incidentsChart(figures, words);
  if (chart) blocks.push({ kind: 'drawing', svg: chart, width: 500, height: Number(/height="(\d+)"/.exec(chart)?.[1] ?? 200) });
  blocks.push(
    incidents.byKind.length
      ? {
          kind: 'table',
          columns: [
            { title: words.col.kind, weight: 3 },
            { title: words.col.level, weight: 1 },
            { title: words.col.count, weight: 1, align: 'right' },
            { title: words.col.handled, weight: 1, align: 'right' },
            { title: words.col.median, weight: 1.2, align: 'right' },
          ],
          rows: incidents.byKind.map((r) => [words.kind[r.kind], words.levelName[r.level], number(r.count), number(r.handled), number(r.medianHandledHours)]),
          more: null,
        }
      : { kind: 'paragraph', text: words.none },
  );
  if (incidents.gravest.length) blocks.push({ kind: 'heading', text: words.gravest }, { kind: 'table', columns: incidentColumns, rows: incidentRows(incidents.gravest), more: more(incidents.gravest.length, incidents.raised - incidents.falseAlarms) });

  blocks.push({ kind: 'heading', text: words.network });
  if (network.segments) {
    blocks.push({ kind: 'paragraph', text: fillWords(words.networkLine, { segments: number(network.segments), assessedOn: network.assessedOn ?? '—', worse: number(network.worse), better: number(network.better) }) });
    const ring = networkChart(figures, words);
    if (ring) blocks.push({ kind: 'drawing', svg: ring, width: 500, height: 200 });
    blocks.push({
      kind: 'table',
      columns: [{ title: words.col.level, weight: 1 }, { title: words.col.segments, weight: 1, align: 'right' }, { title: words.col.share, weight: 1, align: 'right' }],
      rows: (['I', 'II', 'III', 'IV'] as const).map((level) => [words.levelName[level], number(network.levels[level]), `${((network.levels[level] / network.segments) * 100).toFixed(1)}%`]),
      more: null,
    });
    if (network.changes.length)
      blocks.push(
        { kind: 'paragraph', text: words.changes },
        {
          kind: 'table',
          columns: [{ title: words.col.from, weight: 1 }, { title: words.col.to, weight: 1 }, { title: words.col.segments, weight: 1, align: 'right' }],
          rows: network.changes.map((c) => [words.levelName[c.from], words.levelName[c.to], number(c.count)]),
          more: null,
        },
      );
  } else blocks.push({ kind: 'paragraph', text: words.networkNone });

  blocks.push({ kind: 'heading', text: words.settlement }, { kind: 'paragraph', text: fillWords(words.settlementLine, { bowls: number(settlement.bowls), pipes: number(settlement.pipes) }) });
  if (settlement.map && settlement.shown.length) {
    const drawn = bowlsMap(settlement.map, settlement.shown);
    blocks.push({ kind: 'drawing', ...drawn }, { kind: 'table', columns: incidentColumns, rows: incidentRows(settlement.shown), more: more(settlement.shown.length, settlement.bowls) });
  }

  blocks.push({ kind: 'heading', text: words.works }, { kind: 'paragraph', text: fillWords(words.worksLine, { active: number(works.active), threatening: number(works.threatening) }) });
  if (works.rows.length)
    blocks.push({
      kind: 'table',
      columns: [
        { title: words.col.siteNo, weight: 1.3 },
        { title: words.col.name, weight: 3.5 },
        { title: words.col.type, weight: 1.3 },
        { title: words.col.nearest, weight: 1.2, align: 'right' },
        { title: words.col.criticality, weight: 1.1 },
        { title: words.col.status, weight: 1.1 },
      ],
      rows: works.rows.map((r) => [
        r.siteNo,
        r.name,
        words.buildType[r.buildType as keyof typeof words.buildType] ?? r.buildType,
        number(r.nearestM),
        words.criticality[r.criticality as keyof typeof words.criticality] ?? r.criticality,
        words.siteStatus[r.status as keyof typeof words.siteStatus] ?? r.status,
      ]),
      more: more(works.rows.length, works.active),
    });

  blocks.push(
    { kind: 'heading', text: words.leaks },
    { kind: 'paragraph', text: fillWords(words.leaksLine, { delivered: number(leaks.delivered), investigated: number(leaks.investigated), leakFound: number(leaks.leakFound), noLeak: number(leaks.noLeak), repaired: number(leaks.repaired), m3h: number(leaks.estimatedM3h) }) },
  );
  if (leaks.rows.length)
    blocks.push({
      kind: 'table',
      columns: [{ title: words.col.poiNo, weight: 2 }, { title: words.col.status, weight: 1.5 }, { title: words.col.priority, weight: 1 }, { title: words.col.estimate, weight: 1, align: 'right' }, { title: words.col.found, weight: 1.5 }],
      rows: leaks.rows.map((r) => [r.poiNo, words.poiStatus[r.status as keyof typeof words.poiStatus] ?? r.status, words.priority[r.priority as keyof typeof words.priority] ?? r.priority, number(r.estimatedLeakM3h), r.foundAt ? day(r.foundAt) : '—']),
      more: more(leaks.rows.length, leaks.leakFound + leaks.repaired),
    });

  blocks.push({ kind: 'heading', text: words.weather }, { kind: 'paragraph', text: fillWords(words.weatherLine, { warnings: number(weather.warnings), official: number(weather.official) }) });
  if (weather.rows.length)
    blocks.push({
      kind: 'table',
      columns: [
        { title: words.col.type, weight: 1 },
        { title: words.col.level, weight: 0.8 },
        { title: words.col.headline, weight: 3.2 },
        { title: words.col.start, weight: 1.8 },
        { title: words.col.end, weight: 1.8 },
        { title: words.col.pipes, weight: 0.8, align: 'right' },
        { title: words.col.riskAreas, weight: 0.9, align: 'right' },
        { title: words.col.sites, weight: 0.7, align: 'right' },
      ],
      rows: weather.rows.map((r) => [
        words.warningType[r.type as keyof typeof words.warningType] ?? r.type,
        r.level ? words.levelName[r.level] : '—',
        r.headline ?? '—',
        time(r.start),
        time(r.end),
        number(r.pipes),
        number(r.riskAreas),
        number(r.sites),
      ]),
      more: more(weather.rows.length, weather.warnings),
    });
  return blocks;
}
