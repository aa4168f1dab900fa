package danger

import "testing"

// TestPackDb names the rule of the databases pack each command must be decided by ("": allowed).
func TestPackDb(t *testing.T) {
	checkPack(t, []packCase{
		{"bin/rails runner 'User.destroy_all'", "db.destructive"},
		{"RAILS_ENV=production bundle exec rails runner \"Order.delete_all; puts :done\"", "db.destructive"},
		{"python manage.py shell -c 'from shop.models import Order; Order.objects.all().delete()'", "db.destructive"},
		{"bin/rails runner 'User.where(spam: true).destroy_all'", ""},
		{"sudo gitlab-rails runner 'Project.find_each(&:destroy)'", "db.destructive"},
		{"RAILS_ENV=production bin/rails runner 'User.all.each { |u| u.destroy }'", "db.destructive"},
		{"bin/rails runner 'Order.all.delete_all'", "db.destructive"},
		{"RAILS_ENV=production bundle exec rails runner 'Order.where(nil).delete_all'", "db.destructive"},
		{"bin/rails runner 'Post.where(draft: true).find_each(&:destroy)'", ""},
		{"bin/rails runner 'User.find_each(&:touch)'", ""},
		{"bin/rails runner 'puts User.count'", ""},
		{"bundle exec rails runner -e development 'Order.delete_all; LineItem.delete_all'", "db.destructive"},
		{"echo 'from shop.models import Order; Order.objects.all().delete()' | python manage.py shell", "db.destructive"},
		{"php artisan tinker --execute='App\\Models\\Post::query()->delete();'", "db.destructive"},
		{"redis-cli --scan --pattern '*' | xargs redis-cli DEL", "db.destructive"},
		{"redis-cli -h cache.internal -a \"$REDIS_PASSWORD\" --scan | xargs -n 500 redis-cli -h cache.internal -a \"$REDIS_PASSWORD\" UNLINK", "db.destructive"},
		{"redis-cli --scan --pattern 'session:*' | xargs redis-cli DEL", "db.destructive"},
		{"redis-cli --scan --pattern 'cache:product:*' | xargs -r redis-cli DEL", ""},
		{"redis-cli --scan --pattern=tmp:* | xargs redis-cli UNLINK", ""},
		{"git restore --pathspec-from-file=list.txt", "git.discard-files"},
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
