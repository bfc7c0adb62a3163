/**
 * Every table, one file per domain under schema/ (drizzle-kit and the code read them all from here).
 */
export * from './schema/common.ts';
export * from './schema/users.ts';
export * from './schema/enterprises.ts';
export * from './schema/projects.ts';
export * from './schema/pipelines.ts';
export * from './schema/imports.ts';
export * from './schema/leaks.ts';
export * from './schema/basemap.ts';
export * from './schema/settlement.ts';
export * from './schema/construction.ts';
export * from './schema/riskAreas.ts';
export * from './schema/weather.ts';
export * from './schema/pipeRisk.ts';
export * from './schema/alerts.ts';
export * from './schema/openData.ts';
export * from './schema/channels.ts';
export * from './schema/audit.ts';
export * from './schema/reports.ts';
export * from './schema/sensors.ts';
