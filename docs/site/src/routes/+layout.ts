// Every page is prerendered to a static file (npm run docs serves them as they are).
export const prerender = true;
