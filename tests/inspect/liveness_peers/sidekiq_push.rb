# Pushes one ReportJob (see sidekiq_unique_job.rb) with Sidekiq's own client and prints its jid.
# Usage: REDIS_URL=redis://127.0.0.1:<port> ruby sidekiq_push.rb <seconds>
require 'sidekiq'
puts Sidekiq::Client.push('class' => 'ReportJob', 'queue' => 'default', 'args' => [ARGV[0].to_i])
