import type { ComponentType } from 'react';
import { ToolbarSearch } from '../custom/search/ToolbarSearch';
import { SetMeUpButton } from '../custom/set-me-up/SetMeUpButton';

/** The toolbar's feature items, in order: every page shows them. */
export const toolbarItems: ComponentType[] = [ToolbarSearch, SetMeUpButton];
