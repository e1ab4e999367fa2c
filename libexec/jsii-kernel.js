'use strict';
// Preloaded into the jsii kernel by libexec/jsii-kernel.
//
// 1. The kernel writes its protocol to fd 3, which the bundled launcher used to relay; here it goes straight to
//    stdout. Console output of JavaScript code (cdktf's warnings) must then stay off stdout, so it goes to stderr
//    in the launcher's {"stdout"|"stderr": base64} form, which the Java runtime decodes and prints on the JVM's own
//    stdout or stderr.
// 2. cdktf records a stack trace for every token it creates (thousands per synth), for error messages. In a Java
//    app those traces only ever show the kernel's own JavaScript frames, never the Java code that made the token,
//    so they are neither captured nor formatted: for those bare records (not Error objects) capturing leaves an
//    empty trace without walking the stack (cdktf raises the frame limit to the maximum for each), and the formatter
//    returns an empty trace. Real errors keep their stack traces.
//
// Internals of the pinned jsii runtime (pom.xml jsii.version; the app refuses another one at start, see
// synth.RunSettings) this relies on, to re-check on every jsii upgrade (JsiiKernelPreloadTest runs the real kernel):
// - the kernel's SyncStdio reads requests with fs.readSync(3, ...) and writes responses with fs.writeSync(3, ...),
//   looked up on the fs module at each call (so replacing fs.writeSync reroutes them);
// - the Java runtime reads the protocol from the process's stdout and decodes stderr lines of the form
//   {"stdout": base64} / {"stderr": base64} (the bundled launcher's relay format), printing anything else as is;
// - the kernel never reads process.stdin/stdout/stderr for the protocol;
// - cdktf records stack traces with Error.captureStackTrace on plain objects ({ stack: "" }, read right after), which
//   V8 formats through Error.prepareStackTrace.
const fs = require('fs');
const { Readable, Writable } = require('stream');

const KERNEL_FD = 3;
const STDOUT_FD = 1;
const STDERR_FD = 2;
const writeSync = fs.writeSync;

fs.writeSync = function writeSyncToJvm(fd, ...rest) {
  return writeSync.call(fs, fd === KERNEL_FD ? STDOUT_FD : fd, ...rest);
};

function writeFully(fd, buffer) {
  for (let written = 0; written < buffer.length;) {
    try {
      written += writeSync.call(fs, fd, buffer, written);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

function consoleStream(key) {
  return new Writable({
    write(chunk, encoding, done) {
      const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding);
      writeFully(STDERR_FD, Buffer.from(JSON.stringify({ [key]: data.toString('base64') }) + '\n'));
      done();
    },
  });
}

// Defined before anything touches them: node's own stdin would put fd 0 (and so fd 3) in non-blocking mode.
const streams = { stdin: Readable.from([]), stdout: consoleStream('stdout'), stderr: consoleStream('stderr') };
for (const [name, stream] of Object.entries(streams)) {
  Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => stream });
}

const captureStackTrace = Error.captureStackTrace;
Error.captureStackTrace = function captureErrorsOnly(target, below) {
  if (target instanceof Error) return captureStackTrace.call(Error, target, below);
  target.stack = '';
  return undefined;
};

const formatStackTrace = Error.prepareStackTrace;
Error.prepareStackTrace = function formatErrorsOnly(error, callSites) {
  if (!(error instanceof Error)) return '';
  return formatStackTrace ? formatStackTrace(error, callSites) : `${error}\n${callSites.map((site) => `    at ${site}`).join('\n')}`;
};
