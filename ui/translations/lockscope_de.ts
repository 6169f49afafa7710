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
</context>
</TS>
