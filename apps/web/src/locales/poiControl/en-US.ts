/** The POI overlay's messages (keys under "poiControl."), loaded with the overlay. */
const messages = {
  pois: 'Points of interest',
  footprints: 'Scene footprints',
  noPipes: 'No pipes yet: import the network under Enterprise → Pipelines.',
  shown: '{{shown}} of {{total}}',
  opacity: 'Opacity',
  areaLegend: 'Project area',
  reset: 'Reset',
  hidePanel: 'Hide layers',
  findPoi: 'Find a POI by number',
  notFound: 'No POI numbered "{{poiNo}}" in this project',
  distance: 'Distance',
  area: 'Area',
  measureDistance: 'Measure a distance on the map',
  measureArea: 'Measure an area on the map',
};
export default messages;
