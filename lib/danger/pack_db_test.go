package danger

import "testing"

// TestPackDb names the rule of the databases pack each command must be decided by ("": allowed).
func TestPackDb(t *testing.T) {
	checkPack(t, []packCase{
		// Migration tools' resets of the development database ask, as prisma migrate reset does.
		{"alembic downgrade base", "db.drop-dev"},
		{"npx knex migrate:rollback --all", "db.drop-dev"},
		{"npx sequelize db:drop", "db.drop-dev"},
		{"npx sequelize-cli db:migrate:undo:all", "db.drop-dev"},
		{"supabase db reset", "db.drop-dev"},
		{"npx prisma db push --force-reset", "db.drop-dev"},
		{"alembic downgrade -1", ""},
		{"npx knex migrate:rollback", ""},
		{"supabase db push", ""},
		{"dropdb production", "db.destructive"},
		{"aws athena start-query-execution --query-string 'DROP TABLE analytics.events'", "db.destructive"},
		{"echo 'TRUNCATE TABLE events' | bq query --use_legacy_sql=false", "db.destructive"},
		{"trino --execute 'DELETE FROM hive.web.events'", "db.destructive"},
		{"curl 'http://localhost:8123/?query=DROP%20TABLE%20events'", "db.destructive"},
		{"influx -host prod-influx -execute 'DROP DATABASE telegraf'", "db.destructive"},
		{"aws athena start-query-execution --query-string 'SELECT count(*) FROM analytics.events'", ""},
		{"bq query --dry_run 'DELETE FROM analytics.events WHERE TRUE'", ""},
		{"heroku pg:reset DATABASE_URL --app acme-staging --confirm acme-staging", "db.destructive-hosted"},
		{"mix ecto.drop", "db.drop-dev"},
		{"redis-cli ping", ""},
		{"sqlite3 -readonly data/app.db 'DROP TABLE users'", ""},
		{"sqlite3 'file:data/app.db?mode=ro' 'DELETE FROM users'", ""},
		{"createdb myapp_dev", ""},
		{"alembic upgrade head", ""},
	})
}
