// Package harness holds the project's default wiring, settings.json, for the installer to read.
package harness

import _ "embed"

// Settings is the repository's settings.json: the one declaration of which hook runs on which
// event, with which matcher and timeout.
//
//go:embed settings.json
var Settings []byte

// License is the repository's LICENSE, which a plugin written by `harness plugin` carries.
//
//go:embed LICENSE
var License []byte
