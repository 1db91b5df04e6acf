'use strict';
// Paths into test/fixtures, which the runner imports with the tests.

const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');

const fixturesDir = path.join(__dirname, '..', 'fixtures');
const fixturePath = (...parts) => path.join(fixturesDir, ...parts);

module.exports = {
  fixturesDir,
  path: fixturePath,
  fileURL: (...parts) => pathToFileURL(fixturePath(...parts)),
  readSync: (p, enc) => fs.readFileSync(fixturePath(...(Array.isArray(p) ? p : [p])), enc),
  readKey: (name, enc) => fs.readFileSync(fixturePath('keys', name), enc),
  utf8TestText: '永和九年，嵗在癸丑，暮春之初，會於會稽山陰之蘭亭，脩稧事也。' +
    '羣賢畢至，少長咸集。此地有崇山峻領，茂林脩竹；又有清流激湍，' +
    '映帶左右。引以為流觴曲水，列坐其次。雖無絲竹管弦之盛，一觴一詠，' +
    '亦足以暢敘幽情。是日也，天朗氣清，惠風和暢；仰觀宇宙之大，' +
    '俯察品類之盛；所以遊目騁懷，足以極視聽之娛，信可樂也。夫人之相與，' +
    '俯仰一世，或取諸懷抱，悟言一室之內，或因寄所託，放浪形骸之外。' +
    '雖趣舍萬殊，靜躁不同，當其欣於所遇，暫得於己，怏然自足，' +
    '不知老之將至。及其所之既倦，情隨事遷，感慨係之矣。向之所欣，' +
    '俯仰之間，已為陳跡，猶不能不以之興懷；況脩短隨化，終期於盡。' +
    '古人云：「死生亦大矣。」豈不痛哉！每攬昔人興感之由，若合一契，' +
    '未嘗不臨文嗟悼，不能喻之於懷。固知一死生為虛誕，齊彭殤為妄作。' +
    '後之視今，亦由今之視昔，悲夫！故列敘時人，錄其所述，雖世殊事異，' +
    '所以興懷，其致一也。後之攬者，亦將有感於斯文。',
};
