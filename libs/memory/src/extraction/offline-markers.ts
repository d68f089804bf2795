import { toTraditional } from '@lomo/llm';

/**
 * The cue words of the offline rules (libs/memory/README.md, "Offline extraction rules"). Chinese
 * cues are tested on the Traditional form of the text; forms the conversion table lacks are listed
 * in both scripts.
 */
export const MARKERS = {
  question:
    /\?|？|^\s*(what|which|who|how|why|when|where|does|did|can|could|should|would|is|are|shall|may)\b|嗎|吗|呢\s*$|什麼|什么|哪|是否|是不是|要不要|好不好|可不可以|能不能|對吧|对吧/iu,
  hypothetical:
    /^\s*(if|what if|suppose|imagine|maybe|perhaps)\b|\b(might|would be nice)\b|如果|假如|要是|假設|假设|也許|也许|或許|或许|可能/iu,
  correction:
    /\b(that's|that is|this is|it's|it is) (wrong|not right|incorrect|outdated)\b|\bno longer\b|\bany ?more\b|\bactually\b|\bchanged\b|\b(is|it's|are) [a-z-]+( [a-z-]+)? now\b|不對|不对|錯了|错了|不是.{1,8}了|改成|改為|改为|換成了|换成了|現在是|现在是|其實|其实|已經改|已经改|更正/iu,
  confirmation:
    /^\s*(yes|yeah|yep|right|correct|exactly|indeed)\b|\b(is right|is correct|that's right|sounds right|keep (it|using)|still (like|prefer|want|use))\b|^\s*(對|对|是的|沒錯|没错|嗯|就是)|沒錯|没错|是對的|是对的|沒問題|没问题|繼續用|继续用|保持/iu,
  refinementJoin: /\b(with|and|plus|paired with|next to)\b|搭配|配上|配|加上|加|和|跟|與|与/iu,
  comparative:
    /\b(softer|better|nicer|calmer|cleaner|warmer|cooler|works better|looks better|more|less)\b|更|比較|比较|較|较/iu,
  brandMainColour:
    /\b(our|my|the) brand(?:'s)? (main|primary|core|signature) colou?r (is|will be|should be|should always be)\b|\bmain colou?r of (our|my|the) brand is\b|品牌的?(主色調|主色|主要顏色|主顏色|主要颜色|主颜色|代表色)(是|為|为|用|定為|定为)/iu,
  brand: /\bbrand\b|品牌/iu,
  preference:
    /\bI\s+((usually|generally|always|really|mostly|normally|tend to|do)\s+)*(prefer|like|love|enjoy|go for|favou?r|use|work in)\b|\bmy favou?rite (colou?r|style|palette) is\b|我(通常|一般|一直|總是|总是|比較|比较|向來|向来|平常|平時|平时|真的|很|最|都|還是|还是)*(喜歡|喜欢|偏好|偏愛|偏爱|愛用|爱用|習慣用|习惯用|傾向|倾向)|我最(喜歡|喜欢)的(顏色|颜色|風格|风格)是/iu,
  avoidance:
    /\bI\s+(really\s+)?(don't|do not|never)\s+(like|want|use)\b|\bI\s+(hate|dislike|avoid)\b|\b(avoid|never use|don't use|do not use|no more)\b|我(真的|很|一直|通常)*(不喜歡|不喜欢|討厭|讨厌|不要|不想要)|不要用|別用|别用|避免|不要/iu,
  request:
    /^\s*(please\s+)?(let's\s+)?(try|use|make (it|this|them)|go with|switch to|change (it )?to|do)\b|\b(this time|from now on)\b.*\b(try|use|go with|make)\b|試試|试试|改用|換成|换成|做成|用/iu,
  task: /\b(this time|for now|this one|for this|just this|this poster|this image|this version|this round|this draft)\b|這次|这次|這張|这张|這個|这个|這一版|这一版|這幅|这幅|先試|先试|本次|暫時|暂时|這回|这回/iu,
  longTerm:
    /\b(always|usually|generally|from now on|going forward|in general|every time|in future|in the future|normally|all our|all my)\b|通常|一般|一直|總是|总是|以後|以后|之後都|之后都|每次|一律|向來|向来|平常|平時|平时|長期|长期/iu,
  personName:
    /\b[Mm]y name is ([A-Z][\w-]*(?: [A-Z][\w-]*)?)|\b[Cc]all me ([A-Z][\w-]*)|我叫([\p{Script=Han}A-Za-z]{1,4})|我的名字是([\p{Script=Han}A-Za-z]{1,4})/u,
  brandName:
    /\b(?:[Oo]ur|[Mm]y) brand is called ([A-Z][\w&-]*(?: [A-Z][\w&-]*){0,2})|我們的?品牌(?:叫|名叫|名字是|名稱是)([\p{Script=Han}A-Za-z0-9]{1,12})|我们的?品牌(?:叫|名叫|名字是|名称是)([\p{Script=Han}A-Za-z0-9]{1,12})/u,
} as const;

export type MarkerName = keyof typeof MARKERS;

/** Whether the cue occurs in the text (Chinese compared in Traditional form). */
export const has = (name: MarkerName, text: string): boolean => MARKERS[name].test(toTraditional(text));
