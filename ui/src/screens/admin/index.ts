import type { ComponentType } from 'preact';
import type { RouteProps } from '../../routes';
import { EventsPage } from './events-page';

/** The screens loaded on first use, by the name the route table gives them. */
export const adminScreens = {
  events: EventsPage,
} satisfies Record<string, ComponentType<RouteProps>>;
