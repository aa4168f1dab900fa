package danger

import "testing"

// TestPackDb names the rule of the databases pack each command must be decided by ("": allowed).
func TestPackDb(t *testing.T) {
	checkPack(t, []packCase{
		{"dropdb production", "db.destructive"},
		{"heroku pg:reset DATABASE_URL --app acme-staging --confirm acme-staging", "db.destructive-hosted"},
		{"mix ecto.drop", "db.drop-dev"},
		{"redis-cli ping", ""},
		{"sqlite3 -readonly data/app.db 'DROP TABLE users'", ""},
		{"sqlite3 'file:data/app.db?mode=ro' 'DELETE FROM users'", ""},
		{"createdb myapp_dev", ""},
		{"alembic upgrade head", ""},
	})
}
