/// <reference types="vite/client" />

/** The release this build is: the root package.json's version, set by vite.config.ts. */
declare const __ATRIUM_RELEASE__: string;
