// Package object builds JSON objects that keep their key order, rendered without encoding/json.
package object
