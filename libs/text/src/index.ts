export { tokenize, tokenSet, overlap } from './tokenize';
export { isStopword } from './stopwords';
