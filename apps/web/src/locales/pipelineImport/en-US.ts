/** The pipe network import's messages (keys under "pipelineImport."), loaded with the import dialog. */
const messages = {
  title: 'Import a pipe network',
  fields: {
    pipeId: 'Pipe id',
    networkType: 'Network type',
    material: 'Material',
    diameterMm: 'Diameter (mm)',
    pressureClass: 'Pressure class',
    installYear: 'Install year',
    depthM: 'Depth (m)',
    owner: 'Owner',
  },
  pipeIdRequired: 'Choose the field that holds the pipe id',
  defaultNetwork: 'Default network type',
  defaultNetworkHint: 'For features whose network type is not in the file.',
  mode: 'Write mode',
  modes: { append: 'Add', upsert: 'Add or update', replace: 'Replace the network' },
  modeHints: {
    append: 'new pipes only; an id already in the network is an error',
    upsert: 'pipes with a known id are updated',
    replace: 'the file becomes the whole network; pipes not in it are deleted',
  },
  succeeded: '{{count, number}} pipes imported',
  succeededDetail: '{{file}}: {{inserted, number}} added, {{updated, number}} updated, {{deleted, number}} deleted.',
};
export default messages;
