<?php
// A real Symfony Lock 5.4 holder (Debian's php-symfony-lock with php-redis) for the format
// tests: takes locks with RedisStore on the test server, prints each one's token, and keeps
// them (refreshing when asked) until it is killed.
// Usage: php symfony_lock_holder.php <port> <ttl seconds> <mode> <resource>
//   mode write:   one exclusive lock on <resource>
//   mode read:    two shared (read) locks on <resource>
//   mode refresh: an exclusive lock refreshed every ttl/3 seconds
require_once '/usr/share/php/Symfony/Component/Lock/autoload.php';

use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Store\RedisStore;

[, $port, $ttl, $mode, $resource] = $argv;
$redis = new Redis();
$redis->connect('127.0.0.1', (int) $port);
$store = new RedisStore($redis, (float) $ttl);

// The token RedisStore keeps in the key's state (its private getUniqueToken()).
function tokenOf(Key $key): string {
    return $key->getState(RedisStore::class);
}

$keys = [];
if ($mode === 'read') {
    foreach ([1, 2] as $i) {
        $key = new Key($resource);
        $store->saveRead($key);
        $keys[] = $key;
        echo "read " . tokenOf($key) . "\n";
    }
} else {
    $key = new Key($resource);
    $store->save($key);
    $keys[] = $key;
    echo "write " . tokenOf($key) . "\n";
}
fflush(STDOUT);
while (true) {
    usleep((int) ($ttl * 1e6 / 3));
    if ($mode === 'refresh') foreach ($keys as $k) $store->putOffExpiration($k, (float) $ttl);
}
