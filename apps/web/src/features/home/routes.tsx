import type { RouteObject } from 'react-router';
import { HomePage } from './HomePage.tsx';

export const homeRoutes: RouteObject[] = [{ index: true, element: <HomePage /> }];
