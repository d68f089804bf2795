// Function words that say nothing about which work a message belongs to. English, and the
// commonest Chinese function characters (dropped from Han runs longer than two characters).
const EN = `a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being
am do does did done have has had having i me my mine you your yours we us our ours he him his she her hers it its they them
their theirs this that these those there here what which who whom whose when where why how can could will would shall should
may might must not no yes ok okay so too very just also again please pls thanks thank hi hello hey let lets let's make made get
got give want wanted need like some any all one ones more most less much many bit little now today up down out over`;

const ZH = '的了是在和与及或也都就还把被给让吗呢吧啊呀哦嗯么这那个些我你他她它们';

const WORDS = new Set(EN.split(/\s+/).filter(Boolean));
const HAN_CHARS = new Set([...ZH]);

export function isStopword(token: string): boolean {
  return WORDS.has(token) || (token.length === 1 && HAN_CHARS.has(token));
}
