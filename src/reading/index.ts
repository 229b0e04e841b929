/**
 * Reading settings the way a person reads them, in nine languages: the neutral core the builders and the
 * validator share. Pure apart from loading its word lists once (words/*.json).
 */
export { CONVERSION_NAMES, deriveValue, isConversionName, phraseGiving, type ConversionName, type Converted } from './conversions.ts';
export { findSettingPhrases, fillerWords, isAskedAbout, isContentAt, isFiller, readSettings, shownTextSpans, webAddressSpans, type Reading, type SettingPhrase } from './find.ts';
export { READING_LANGUAGES, readingWords, wordFileProblem, type ReadingLanguage } from './words.ts';
export { anyWord as anyWordPattern, isUnspaced } from './patterns.ts';
export { decimalCommaPhrase, quantityWords } from './quantities.ts';
export { DIGIT, foldDigits } from './numbers.ts';
export { exclusionField, findExclusions, type Exclusion } from './exclusions.ts';
export { presetRatios, presetShapes, type PresetShape } from './size-presets.ts';
