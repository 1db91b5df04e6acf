import fixtures from './fixtures.js';

export const { fixturesDir, fileURL, readSync, readKey, utf8TestText } = fixtures;
const fixturePath = fixtures.path;
export { fixturePath as path };
export default fixtures;
