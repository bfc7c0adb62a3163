import type enUS from './en-US.ts';

/** 兴趣点叠加页面的文案（键位于 "poiControl." 之下），随页面加载。 */
const messages: typeof enUS = {
  pois: '兴趣点',
  footprints: '影像覆盖范围',
  noPipes: '暂无管线：在“企业管理 → 管线管理”中导入管网。',
  shown: '{{shown}} / {{total}}',
  opacity: '透明度',
  areaLegend: '项目范围',
  reset: '恢复默认',
  hidePanel: '隐藏图层',
  findPoi: '按编号查找兴趣点',
  notFound: '本项目没有编号为“{{poiNo}}”的兴趣点',
  distance: '测距',
  area: '测面积',
  measureDistance: '在地图上测量距离',
  measureArea: '在地图上测量面积',
};
export default messages;
