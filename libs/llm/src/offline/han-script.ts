/**
 * Telling Traditional from Simplified Chinese, and writing our own short phrases in either.
 * PAIRS holds common characters whose forms differ between the scripts (simplified first),
 * chosen so that each simplified form maps to one traditional form in everyday use; characters
 * with several traditional forms (发/髮, 干/乾/幹, 里/裡, 只/隻) are left out of what we convert,
 * and the phrases we write avoid them.
 */
const PAIRS =
  '帮幫们們这這个個画畫说說张張来來为為会會么麼图圖还還报報设設计計蓝藍让讓点點颜顏' +
  '写寫请請谢謝吗嗎对對时時间間问問题題见見觉覺样樣种種开開关關门門东東车車长長马馬书書' +
  '页頁项項务務划劃动動态態视視频頻节節广廣传傳单單标標语語译譯读讀记記录錄笔筆历歷导導' +
  '删刪与與给給从從后後没沒现現应應该該欢歡换換变變调調红紅绿綠黄黃爱愛实實际際网網电電' +
  '词詞义義类類别別统統处處进進选選启啟续續创創归歸档檔暂暫继繼结結经經体體术術输輸转轉' +
  '杂雜简簡难難几幾边邊过過错錯谁誰乐樂听聽专專业業产產营營销銷号號码碼场場员員览覽显顯' +
  '机機构構风風组組织織观觀众眾质質数數据據库庫链鏈讯訊识識认認务務条條双雙发發' +
  '确確议議论論闻聞热熱气氣灯燈饭飯装裝两兩岁歲亚亞择擇内內属屬于於复復无無离離线線里裡' +
  '脚腳镜鏡头頭审審阅閱纲綱骤驟静靜远遠渐漸环環缓緩细細铺鋪垫墊贯貫缀綴温溫顺順';

const toTraditionalMap = new Map<string, string>();
const simplifiedOnly = new Set<string>();
const traditionalOnly = new Set<string>();
{
  const chars = [...PAIRS];
  for (let i = 0; i + 1 < chars.length; i += 2) {
    const [simplified, traditional] = [chars[i]!, chars[i + 1]!];
    toTraditionalMap.set(simplified, traditional);
    simplifiedOnly.add(simplified);
    traditionalOnly.add(traditional);
  }
}

export type ChineseScript = 'zh-Hans' | 'zh-Hant';

/** zh-Hant when the text has more Traditional-only than Simplified-only characters; ties → zh-Hans. */
export function chineseScript(text: string): ChineseScript {
  let traditional = 0;
  let simplified = 0;
  for (const char of text) {
    if (traditionalOnly.has(char)) traditional += 1;
    else if (simplifiedOnly.has(char)) simplified += 1;
  }
  return traditional > simplified ? 'zh-Hant' : 'zh-Hans';
}

/** Our own Simplified phrases in Traditional characters (only characters of the table change). */
export function toTraditional(text: string): string {
  let out = '';
  for (const char of text) out += toTraditionalMap.get(char) ?? char;
  return out;
}

/** True when the text still holds a Simplified-only character of the table (tests of our phrases). */
export const hasSimplifiedOnly = (text: string): boolean => [...text].some((c) => simplifiedOnly.has(c));
