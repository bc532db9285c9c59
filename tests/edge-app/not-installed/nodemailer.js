// This repository installs nodemailer (kitauth's own email tests use it), so npm's hoisting makes
// it resolvable from this app too. The app stands for a Worker that sends no email over SMTP and
// has not installed it: in its place, what Vite builds for a missing optional peer dependency.
throw new Error('Could not resolve "nodemailer" imported by "kitauth". Is it installed?');
