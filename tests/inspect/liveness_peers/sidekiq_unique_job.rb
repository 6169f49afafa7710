# A real Sidekiq 6.4 job (Debian's ruby-sidekiq) that holds a lock in sidekiq-unique-jobs' key
# format while it runs, for the liveness tests. The gem sidekiq-unique-jobs itself is not
# packaged in Debian, so this server middleware writes what its while_executing lock writes
# (lib/sidekiq_unique_jobs/lua/lock.lua): the digest in uniquejobs:digests and
# "<digest>:LOCKED", a hash of job id -> lock time (Time.now.to_f), then runs the job.
# Started as: sidekiq -r <this file> -c 1 -q default, with REDIS_URL and LIVENESS_DIGEST set.
# The job sleeps for its first argument's seconds and prints "started <jid>" when it begins.
require 'sidekiq'

class UniqueJobsLockWriter
  def call(_worker, job, _queue)
    digest = ENV.fetch('LIVENESS_DIGEST')
    Sidekiq.redis do |conn|
      conn.multi do |t|
        t.zadd('uniquejobs:digests', Time.now.to_f, digest)
        t.hset("#{digest}:LOCKED", job['jid'], Time.now.to_f.to_s)
      end
    end
    yield
  end
end

Sidekiq.configure_server do |config|
  config.server_middleware { |chain| chain.add UniqueJobsLockWriter }
end

class ReportJob
  include Sidekiq::Worker
  def perform(seconds)
    $stdout.puts "started #{jid}"
    $stdout.flush
    sleep seconds
  end
end
