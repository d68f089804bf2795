export { KNOWN_CONSUMER_GROUPS, MEMORY_CONSUMER_GROUP, isConsumerGroupId } from './consumer-groups';
export {
  relayStatus,
  topicLag,
  DEFAULT_RELAY_ID,
  DEFAULT_LAG_LIMIT,
  type RelayStatus,
  type RelayStatusSources,
  type RelayStatusOptions,
  type RelayLeaseStatus,
  type ConsumerGroupStatus,
  type TopicLag,
  type PartitionLag,
} from './relay-status';
