/**
 * Texts of the generic screens. The validation wording is spec 01 §5 verbatim; it is the
 * fallback for schemas without their own `errorMessage` (those win, via ajv-errors).
 */
export {
  REQUIRED_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  INVALID_URL_MESSAGE,
  maxLengthMessage,
  minLengthMessage,
} from '../../server/schemas/validation-wording.ts';
/** Spec 03 §5, repository crons; the form says it of every cron field. */
export const CRON_INVALID_MESSAGE = 'The cron expression is invalid';

/** Spec 01 §8, "default server error": the fallback when an error answer says nothing. */
export const DEFAULT_ERROR_MESSAGE = 'Error. Please check the product logs.';

export const SEARCH_LABEL = 'Search';
export const DELETE_LABEL = 'Delete';
export const DELETE_CONFIRM_DEFAULT = {
  title: 'Delete',
  text: 'Are you sure you want to delete {count} item(s)?',
};
export const CONFIRM_LABEL = 'Confirm';
export const CANCEL_LABEL = 'Cancel';
export const SAVE_LABEL = 'Save';
export const RESET_LABEL = 'Reset';
export const NEW_LABEL_DEFAULT = 'New';
export const LOADING_LABEL = 'Loading…';
export const ACTIONS_LABEL = 'Actions for the selected row';

/** A list with no rows at all, unless its descriptor words it (`list.emptyState`). */
export const emptyStateDefault = (title: string, newLabel: string) => ({
  title: `No ${title} Yet`,
  text: `Create the first with ${newLabel}.`,
});

/** What a save says: the descriptor's own words (`{key}` filled in), or the engine's. */
export const savedMessage = (
  entityTitle: string,
  key: string,
  mode: 'create' | 'edit',
  worded?: string,
) =>
  worded !== undefined
    ? worded.replaceAll('{key}', key)
    : `${entityTitle} '${key}' ${mode === 'create' ? 'created' : 'updated'}`;
/** A settings document saved from the engine's page (a bespoke page may word its own). */
export const settingsSavedMessage = (title: string) => `${title} saved`;
export const deletedMessage = (entityTitle: string, count: number) =>
  `${count} ${entityTitle.toLowerCase()}(s) deleted`;
/** A form action's answer without a message of its own, nor one in the descriptor. */
export const FORM_ACTION_DONE = 'Done';
export const actionDoneMessage = (actionLabel: string, key: string) =>
  `${actionLabel}: done for '${key}'`;
