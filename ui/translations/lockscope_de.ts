<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!-- A small German teaching translation: it proves the mechanism (lib/ gives message ids,
     the window translates them with qtTrId). Ids and English sources: lib/src/sim/message.cpp. -->
<TS version="2.1" language="de_DE">
<context>
    <name></name>
    <message id="sim.gtd.get-first">
        <source>%1 releases from the client: first GET, to see whether the lock is still its own.</source>
        <translation>%1 gibt den Lock vom Client aus frei: zuerst GET, um zu sehen, ob der Lock noch der eigene ist.</translation>
    </message>
    <message id="sim.gtd.sends-del">
        <source>%1 sends DEL.</source>
        <translation>%1 sendet DEL.</translation>
    </message>
    <message id="sim.gtd.atomic-release">
        <source>%1 releases with the guide&apos;s script: GET, compare and DEL run as one unit on the server, so nothing can happen in between.</source>
        <translation>%1 gibt mit dem Skript des Leitfadens frei: GET, Vergleich und DEL laufen als eine Einheit auf dem Server, dazwischen kann nichts geschehen.</translation>
    </message>
    <message id="sim.counter.reads">
        <source>%1 reads the counter (%2) and computes %3.</source>
        <translation>%1 liest den Zähler (%2) und berechnet %3.</translation>
    </message>
    <message id="sim.counter.writes-back">
        <source>%1 writes back %2.</source>
        <translation>%1 schreibt %2 zurück.</translation>
    </message>
    <message id="sim.failover.takes-async">
        <source>%1 takes the lock on the primary %2; the reply comes before any replica has the key (replication is asynchronous).</source>
        <translation>%1 nimmt den Lock auf dem Primary %2; die Antwort kommt, bevor ein Replica den Schlüssel hat (die Replikation ist asynchron).</translation>
    </message>
    <message id="sim.seat.holds">
        <source>%1 holds seat %2 on %3 for %4 and starts paying.</source>
        <translation>%1 hält Platz %2 auf %3 für %4 und beginnt zu bezahlen.</translation>
    </message>
    <message id="sim.redlock.writes">
        <source>%1 writes its report.</source>
        <translation>%1 schreibt seinen Bericht.</translation>
    </message>
    <message id="sim.operator.opens">
        <source>The operator opens LockScope&apos;s inspector, which reads the lock:</source>
        <translation>Der Operator öffnet den Inspektor von LockScope, der den Lock liest:</translation>
    </message>
    <message id="sim.report.scheduler-fires">
        <source>%1&apos;s scheduler fires the nightly report job.</source>
        <translation>Der Scheduler von %1 startet den nächtlichen Bericht.</translation>
    </message>
    <message id="sim.report.plain-del">
        <source>%1 deletes the lock with a plain DEL.</source>
        <translation>%1 löscht den Lock mit einem einfachen DEL.</translation>
    </message>
    <message id="sim.report.renews">
        <source>%1 built chunk %2 and renews its lock before writing it.</source>
        <translation>%1 hat Teil %2 erstellt und erneuert seinen Lock, bevor es ihn schreibt.</translation>
    </message>
    <message id="sim.redlock.oks">
        <source>%1 has OK from %2: %3 of %4 (a majority is %5) in %6 since it started at %7.</source>
        <translation>%1 hat OK von %2: %3 von %4 (eine Mehrheit sind %5) in %6 seit dem Start um %7.</translation>
    </message>
    <message id="sim.redlock.validity">
        <source>Validity = %1 − %2 − drift %3 = %4.</source>
        <translation>Gültigkeit = %1 − %2 − Drift %3 = %4.</translation>
    </message>
    <message id="sim.clock.jumps">
        <source>%1&apos;s clock jumps %2 forward (an NTP step, a VM resumed after suspension).</source>
        <translation>Die Uhr von %1 springt %2 vor (ein NTP-Schritt, eine nach dem Anhalten fortgesetzte VM).</translation>
    </message>
</context>
</TS>
