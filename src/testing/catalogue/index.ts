// The generated large catalogue (test build, GATEWAY_CATALOGUE_PROCEDURES=N): its controllers and its search cases.
export { catalogueControllers } from './controllers';
export { SEARCH_QUALITY_CASES } from './search-quality';
