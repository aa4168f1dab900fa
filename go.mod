module github.com/hookkit/harness

go 1.26.0

require (
	github.com/rogpeppe/go-internal v1.16.0
	github.com/tidwall/gjson v1.20.0
	github.com/tidwall/pretty v1.2.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
