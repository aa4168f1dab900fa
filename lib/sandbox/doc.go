// Package sandbox runs a package's tests in a throwaway home: HOME, the harness's folders and
// every client's configuration folder point into a temporary directory for the whole test
// binary, so that no test reads or changes the user's install, whatever it runs. Every package
// with tests enters it from its TestMain; tests/sandbox_test.go fails for one that does not.
package sandbox
