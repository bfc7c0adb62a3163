import { BUILD_TYPES, type BuildType, type GasPressure } from './construction.ts';
import { NETWORK_TYPES, type NetworkType } from './projects.ts';
import type { WordField } from './imports.ts';
import { RISK_AREA_KINDS, RISK_LEVELS, type RiskAreaKind, type RiskLevel } from './riskAreas.ts';
import { SENSOR_KINDS, type SensorKind } from './sensors.ts';

/**
 * How registers write our words: a utility's, a district's or a provider's own terms for build
 * types, risk-prone area kinds, levels, network types and gas pressure classes, read once here
 * for every import (and the pipe import, the construction and risk-area registers alike).
 * A word is first normalised: full-width letters and digits and Roman numerals (Ⅱ) to plain ones
 * (NFKC), lower case, without spaces, underscores, hyphens, middle dots, commas or brackets.
 */
export function normalWord(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\s_\-·・,，、()（）]/g, '');
}

const table = <T extends string>(values: readonly T[], words: Record<T, string[]>): Map<string, T> => {
  const map = new Map<string, T>();
  for (const value of values) {
    map.set(normalWord(value), value);
    for (const word of words[value]) map.set(normalWord(word), value);
  }
  return map;
};

const BUILD_TYPE_WORDS = table<BuildType>(BUILD_TYPES, {
  metro: ['subway', 'tunnel', 'rail transit', 'metro works', '地铁', '地铁建设', '地铁施工', '地铁工程', '地铁车站', '轨道交通', '轨道交通建设', '轨道交通工程', '城市轨道交通', '隧道', '隧道施工', '盾构', '盾构施工'],
  road: ['roadworks', 'road rebuild', 'road works', 'highway', '道路', '道路改造', '道路改建', '道路施工', '道路工程', '道路维修', '道路大修', '道路开挖', '路面改造', '路面施工', '路面维修', '公路', '公路施工'],
  municipalRoad: ['municipal', 'municipal road', 'municipal works', 'bridge', '市政', '市政道路', '市政道路改造', '市政道路建设', '市政道路工程', '市政工程', '市政施工', '桥梁', '桥梁施工', '桥梁工程', '桥梁建设', '立交', '高架'],
  stormSewer: ['sewer', 'storm', 'drainage', 'storm sewer', 'pipe relocation', 'utility works', '雨污水', '雨污水改造', '雨污水工程', '雨污分流', '雨污分流改造', '雨水', '污水', '排水', '排水工程', '管线迁改', '管线迁移', '管线施工', '管道施工', '管网改造', '管线改造', '管线工程', '综合管廊'],
  building: ['construction', 'excavation', 'piling', 'building works', '房建', '房屋建筑', '房屋建设', '建筑', '建筑施工', '建筑工程', '基坑', '基坑开挖', '基坑施工', '桩基', '桩基施工', '楼盘', '住宅', '商业综合体'],
  other: ['其他', '其它', '其他施工', '其它施工'],
});

const RISK_KIND_WORDS = table<RiskAreaKind>(RISK_AREA_KINDS, {
  waterlogging: ['flooding', 'ponding', 'waterlogging point', '易涝点', '内涝点', '内涝', '积水点', '积水', '渍水点', '涝点', '低洼易涝', '易涝', '易涝区'],
  void: ['cavity', 'underground void', '空洞', '地下空洞', '道路空洞', '脱空', '地下病害体', '病害体'],
  collapse: ['sinkhole', 'past collapse', '塌陷', '地面塌陷', '路面塌陷', '道路塌陷', '历史塌陷', '塌方', '坍塌'],
  geoHazard: ['geohazard', 'hazard', 'landslide', 'geological hazard', '地质灾害', '地灾', '地质灾害隐患', '地质灾害隐患点', '滑坡', '崩塌', '泥石流', '地裂缝'],
  subsidence: ['settlement', 'subsidence zone', '沉降', '沉降区', '地面沉降', '不均匀沉降', '沉降漏斗'],
});

const SENSOR_KIND_WORDS = table<SensorKind>(SENSOR_KINDS, {
  gas: ['combustible gas', 'methane', 'ch4', 'lel', 'gas detector', '可燃气体', '可燃气', '燃气', '甲烷', '燃气泄漏', '可燃气体浓度', '沼气'],
  pressure: ['pressure gauge', 'pressure meter', 'pressure transmitter', '压力', '水压', '气压', '管网压力', '压力变送器', '压力表'],
  flow: ['flowmeter', 'flow meter', '流量', '瞬时流量', '流量计量'],
  level: ['water level', 'well level', 'level gauge', '液位', '水位', '井下水位', '井内液位', '积水深度'],
  cover: ['manhole cover', 'cover tilt', 'tilt', '井盖', '井盖倾斜', '智能井盖', '井盖位移', '倾角'],
  temperature: ['temp', 'thermometer', '温度', '水温', '井内温度'],
});

const LEVEL_WORDS = table<RiskLevel>(RISK_LEVELS, {
  I: ['1', '一', 'red', '红', '红色', '重大', '特大', '极高', '高易发', 'high'],
  II: ['2', '二', 'orange', '橙', '橙色', '较大', '较高', '中易发', 'medium'],
  III: ['3', '三', 'yellow', '黄', '黄色', '一般', '中', '低易发', 'low'],
  IV: ['4', '四', 'blue', '蓝', '蓝色', '较低', '低', '不易发'],
});

const NETWORK_WORDS = table<NetworkType>(NETWORK_TYPES, {
  water: ['给水', '供水', '自来水', '上水', 'js', 'ws', 'water supply'],
  gas: ['燃气', '天然气', '煤气', 'rq', 'natural gas'],
  drainage: ['排水', '污水', '雨水', '雨污合流', '下水', 'ps', 'ys', 'ws2', 'sewer', 'sewage', 'stormwater', 'storm'],
  heat: ['热力', '供热', '暖气', 'rl', 'heating', 'district heating'],
  power: ['电力', '供电', 'dl', 'electric', 'electricity'],
  telecom: ['通信', '电信', '通讯', 'tx', 'communication', 'telecommunication'],
});

/** A build type from a register's word, or null. */
export function readBuildType(text: string): BuildType | null {
  const word = normalWord(text);
  return BUILD_TYPE_WORDS.get(word) ?? BUILD_TYPE_WORDS.get(word.replace(/(项目|工程|施工|建设)$/, '')) ?? null;
}

/** A risk-prone area's kind from a register's word, or null. */
export function readRiskKind(text: string): RiskAreaKind | null {
  const word = normalWord(text);
  return RISK_KIND_WORDS.get(word) ?? RISK_KIND_WORDS.get(word.replace(/(隐患点|隐患|风险点|风险区)$/, '')) ?? null;
}

/**
 * A level I-IV from the ways registers write it: Ⅰ级-Ⅳ级, I级, 一级, 1级, level 2, 红色 ... 蓝色
 * (the warning colours), 重大/较大/一般, susceptibility (高易发 ...), high/medium/low.
 */
export function readRiskLevel(text: string): RiskLevel | null {
  const word = normalWord(text);
  const bare = word.replace(/^(level|grade|风险等级|等级|风险)/, '').replace(/(级|等|风险|预警|风险等级|level)+$/, '');
  return LEVEL_WORDS.get(word) ?? LEVEL_WORDS.get(bare) ?? null;
}

/** A sensor's kind from a register's word (可燃气体探测器, 压力计, 液位传感器, gas detector ...), or null. */
export function readSensorKind(text: string): SensorKind | null {
  const word = normalWord(text);
  return SENSOR_KIND_WORDS.get(word) ?? SENSOR_KIND_WORDS.get(word.replace(/(传感器|探测器|监测仪|检测仪|报警器|监测|检测|变送器|计|仪|表|sensor|detector|meter|gauge)$/, '')) ?? null;
}

/** A network type from a register's word (给水管线, 燃气, RQ ...), or null. */
export function readNetworkType(text: string): NetworkType | null {
  const word = normalWord(text);
  return NETWORK_WORDS.get(word) ?? NETWORK_WORDS.get(word.replace(/(管线|管网|管道|管)$/, '')) ?? null;
}

/**
 * A gas pipe's pressure class as the protection rules know it (GB 50028: low < 0.01 MPa, medium
 * A/B up to 0.4, sub-high up to 1.6, high above), from the utility's wording: 中压A, 次高压B,
 * sub-high, HP, or a pressure in MPa. A gas pipe whose class is not given or not read is taken as
 * low/medium pressure, the class of most distribution pipes.
 */
export function readGasPressure(text: string | null): GasPressure {
  const word = normalWord(text ?? '');
  if (/^(subhigh|次高压|次高|shp)/.test(word)) return 'subHigh';
  if (/^(high|高压|hp)/.test(word)) return 'high';
  const mpa = /^([\d.]+)mpa$/.exec(word);
  if (mpa) {
    const p = Number(mpa[1]);
    if (p > 1.6) return 'high';
    if (p > 0.4) return 'subHigh';
  }
  return 'lowMedium';
}

/** The values each word field takes (an answer outside them is refused by the server, naming it). */
export const WORD_VALUES: Record<WordField, readonly string[]> = { buildType: BUILD_TYPES, riskKind: RISK_AREA_KINDS, riskLevel: RISK_LEVELS, sensorKind: SENSOR_KINDS };
