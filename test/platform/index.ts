/** The local platform server: data generation, the server itself and its fault injection. */
export { demoDeployment } from './demo';
export { demoFiles } from './demo-files';
export { clickToFixPrState } from './findings-query';
export type { Fault, FaultController, FaultMatch } from './faults';
export { GENERATION_BASE_TIME, generateDeployment, type GenerateOptions } from './generator';
export { startPlatformServer, type PlatformServerOptions, type RecordedRequest, type RunningPlatform } from './server';
export type { ClickToFixPrState, PlatformData, PlatformDeployment, StoredProject } from './types';
export { formatTimestamp, parseTimestamp, type TimestampStyle } from './timestamps';
