//go:build !darwin || ios

package launchd

func activate(string) ([]int32, error) { return nil, ErrNotDarwin }
