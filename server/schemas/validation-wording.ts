/**
 * What a person reads when a value breaks a schema keyword that the schema did not word
 * itself (`errorMessage` wins, via ajv-errors). Spec 01 §5's generic messages verbatim where
 * the spec has one, plain words where it has none; never a validator's own text
 * (`must match pattern "..."`, `Instance type "number" is invalid.`). The server's error
 * mapping and the console's error transformer both word errors here, so a field says the
 * same thing whichever side refused it.
 */
export const REQUIRED_MESSAGE = 'You must fill in this field';
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email';
export const INVALID_URL_MESSAGE = 'Please enter a valid url';
export const INVALID_CRON_MESSAGE = 'Please enter a valid cron expression';
export const NON_NEGATIVE_MESSAGE = 'Please enter a non-negative number';
export const WHOLE_NUMBER_MESSAGE = 'Please enter a whole number';
export const ILLEGAL_NAME_MESSAGE = 'Name contains illegal characters';
export const NUMBER_MESSAGE = 'Please enter a number';
export const TRUE_OR_FALSE_MESSAGE = 'Please choose true or false';
export const TEXT_MESSAGE = 'Please enter text';
export const LIST_MESSAGE = 'Please enter a list of values';
export const INVALID_VALUE_MESSAGE = 'Please enter a valid value';
export const INVALID_FORMAT_MESSAGE = 'The value is not in the expected format';
export const CHOICE_MESSAGE = 'Please choose one of the offered values';
export const UNIQUE_ITEMS_MESSAGE = 'Each value may appear only once';
export const maxLengthMessage = (limit: number) => `Value may not exceed ${limit} symbols`;
export const minLengthMessage = (limit: number) => `Value must be greater then ${limit} symbols`;
export const minimumMessage = (limit: number) => `The value may not be less than ${limit}`;
export const maximumMessage = (limit: number) => `The value may not be more than ${limit}`;
export const aboveMessage = (limit: number) => `The value must be more than ${limit}`;
export const belowMessage = (limit: number) => `The value must be less than ${limit}`;
export const multipleOfMessage = (step: number) => `The value must be a multiple of ${step}`;
export const minItemsMessage = (limit: number) => `Choose at least ${limit} values`;
export const maxItemsMessage = (limit: number) => `Choose at most ${limit} values`;

/** A failed keyword and what the validator knows of it, whichever validator it came from. */
export interface KeywordFailure {
  keyword: string;
  /** The property's own name (`key`, `url`), to say "Name ..." of a name. */
  property?: string;
  /** The keyword's value in the schema: a limit, a format, the expected type. */
  expected?: unknown;
}

/**
 * Properties that name something (`name`, `key`, `repoKey`, `group_name`): a pattern they
 * break is about illegal characters.
 */
const NAME_PROPERTY = /(^|[._-])(name|key|id|username|user|login)$|[a-z](Name|Key|Id)$/;
const isNameProperty = (property: string) =>
  NAME_PROPERTY.test(property.replace(/^[A-Z]/, (c) => c.toLowerCase()));

const FORMAT_MESSAGES: Record<string, string> = {
  email: INVALID_EMAIL_MESSAGE,
  uri: INVALID_URL_MESSAGE,
  url: INVALID_URL_MESSAGE,
  'uri-reference': INVALID_URL_MESSAGE,
  cron: INVALID_CRON_MESSAGE,
};

const TYPE_MESSAGES: Record<string, string> = {
  integer: WHOLE_NUMBER_MESSAGE,
  number: NUMBER_MESSAGE,
  boolean: TRUE_OR_FALSE_MESSAGE,
  string: TEXT_MESSAGE,
  array: LIST_MESSAGE,
};

const asNumber = (value: unknown) => (typeof value === 'number' ? value : Number(value));

function typeMessage(expected: unknown): string {
  const types = Array.isArray(expected) ? expected : [expected];
  for (const type of types) if (TYPE_MESSAGES[String(type)]) return TYPE_MESSAGES[String(type)];
  return INVALID_VALUE_MESSAGE;
}

function limitMessage(keyword: string, limit: number): string | undefined {
  switch (keyword) {
    case 'minLength':
      return limit <= 1 ? REQUIRED_MESSAGE : minLengthMessage(limit);
    case 'maxLength':
      return maxLengthMessage(limit);
    case 'minimum':
      return limit === 0 ? NON_NEGATIVE_MESSAGE : minimumMessage(limit);
    case 'maximum':
      return maximumMessage(limit);
    case 'exclusiveMinimum':
      return aboveMessage(limit);
    case 'exclusiveMaximum':
      return belowMessage(limit);
    case 'multipleOf':
      return limit === 1 ? WHOLE_NUMBER_MESSAGE : multipleOfMessage(limit);
    case 'minItems':
      return limit <= 1 ? REQUIRED_MESSAGE : minItemsMessage(limit);
    case 'maxItems':
      return maxItemsMessage(limit);
    default:
      return undefined;
  }
}

/** The words for one failed keyword; every keyword has some, so no validator text is left. */
export function keywordMessage({ keyword, property, expected }: KeywordFailure): string {
  switch (keyword) {
    case 'required':
    case 'dependentRequired':
      return REQUIRED_MESSAGE;
    case 'format':
      return FORMAT_MESSAGES[String(expected)] ?? INVALID_FORMAT_MESSAGE;
    case 'pattern':
      return property && isNameProperty(property) ? ILLEGAL_NAME_MESSAGE : INVALID_FORMAT_MESSAGE;
    case 'type':
      return typeMessage(expected);
    case 'enum':
    case 'const':
    case 'oneOf':
    case 'anyOf':
      return CHOICE_MESSAGE;
    case 'uniqueItems':
      return UNIQUE_ITEMS_MESSAGE;
    default:
      return limitMessage(keyword, asNumber(expected)) ?? INVALID_VALUE_MESSAGE;
  }
}

/** Every fixed text above plus one instance of each worded limit, for tests' known lists. */
export const KEYWORD_MESSAGE_PATTERNS: RegExp[] = [
  REQUIRED_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  INVALID_URL_MESSAGE,
  INVALID_CRON_MESSAGE,
  NON_NEGATIVE_MESSAGE,
  WHOLE_NUMBER_MESSAGE,
  ILLEGAL_NAME_MESSAGE,
  NUMBER_MESSAGE,
  TRUE_OR_FALSE_MESSAGE,
  TEXT_MESSAGE,
  LIST_MESSAGE,
  INVALID_VALUE_MESSAGE,
  INVALID_FORMAT_MESSAGE,
  CHOICE_MESSAGE,
  UNIQUE_ITEMS_MESSAGE,
]
  .map((text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
  .concat(
    [
      maxLengthMessage,
      minLengthMessage,
      minimumMessage,
      maximumMessage,
      aboveMessage,
      belowMessage,
      multipleOfMessage,
      minItemsMessage,
      maxItemsMessage,
    ].map((wording) => new RegExp(`^${wording(0).replace('0', '-?[\\d.]+')}$`)),
  );
