// Package tests holds the golden-file tests: testscript scripts that pipe payloads to the real,
// built hook binaries and pin their stdout, stderr and exit code.
package tests
