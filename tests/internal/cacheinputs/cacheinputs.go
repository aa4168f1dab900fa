// Package cacheinputs lets go test's result cache see the sources a test builds binaries from.
package cacheinputs

import (
	"os"
	"path/filepath"
)

// Read opens every file under the roots (missing roots are skipped). go test caches a result
// by the files the test process opens while its tests run, not by those a subprocess such as
// go build reads; a test that builds the real binaries calls Read from a test function, or a
// change to a hook would replay a stale pass.
func Read(roots ...string) error {
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if !d.IsDir() {
				_, err = os.ReadFile(path)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
