import type { Employee } from './employees.service.js';

/** The events the employees module emits (core/events.ts); subscribers run inside its transactions. */
declare module '../../../core/events.js' {
  interface DomainEvents {
    /** An employee was created (Customer API, web interface, SCIM). */
    'employee.created': { accountId: number; employee: Employee };
    /** An employee's name or address changed. */
    'employee.updated': { accountId: number; employee: Employee };
    /** A bulk upsert or an import created and changed these employees (one event for the whole request). */
    'employees.upserted': { accountId: number; created: readonly Employee[]; updated: readonly Employee[] };
    /**
     * An employee is being deleted: they have left their groups (counts moved) but their
     * memberships and row still exist. Subscribers keep or anonymise what refers to them.
     */
    'employee.deleting': { accountId: number; employeeId: number; at: number };
    /** An employee was deleted (their row is gone). */
    'employee.deleted': { accountId: number; employeeId: number; at: number };
  }
  interface DomainEventHeads {
    /** Asked before the insert: when nobody wants the event, the insert needs no transaction. */
    'employee.created': { accountId: number };
  }
}
